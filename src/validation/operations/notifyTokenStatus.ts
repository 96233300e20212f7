// `gateway-contract/validators/notifyTokenStatus`: the validation of notifyTokenStatus alone, on its own validators.
import * as request from '../../../generated/validators/notifyTokenStatusRequest.js';
import * as response from '../../../generated/validators/notifyTokenStatusResponse.js';
import { operationValidation } from '../operationValidation.js';

export const notifyTokenStatus = operationValidation('notifyTokenStatus', request, response);
export const { validateRequest, validateResponse } = notifyTokenStatus;
