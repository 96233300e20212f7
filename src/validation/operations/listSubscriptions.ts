// `gateway-contract/validators/listSubscriptions`: the validation of listSubscriptions alone, on its own validators.
import * as validators from '../../../generated/validators/listSubscriptions.js';
import { operationValidation } from '../operationValidation.js';

export const listSubscriptions = operationValidation('listSubscriptions', validators);
export const { validateRequest, validateResponse } = listSubscriptions;
