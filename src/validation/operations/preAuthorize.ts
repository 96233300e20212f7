// `gateway-contract/validators/preAuthorize`: the validation of preAuthorize alone, on its own validators.
import * as request from '../../../generated/validators/preAuthorizeRequest.js';
import * as response from '../../../generated/validators/preAuthorizeResponse.js';
import { operationValidation } from '../operationValidation.js';

export const preAuthorize = operationValidation('preAuthorize', request, response);
export const { validateRequest, validateResponse } = preAuthorize;
