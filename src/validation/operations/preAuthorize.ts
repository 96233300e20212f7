// `gateway-contract/validators/preAuthorize`: the validation of preAuthorize alone, on its own validators.
import * as validators from '../../../generated/validators/preAuthorize.js';
import { operationValidation } from '../operationValidation.js';

export const preAuthorize = operationValidation('preAuthorize', validators);
export const { validateRequest, validateResponse } = preAuthorize;
