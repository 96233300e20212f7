// `gateway-contract/validators/modifyOrder`: the validation of modifyOrder alone, on its own validators.
import * as request from '../../../generated/validators/modifyOrderRequest.js';
import * as response from '../../../generated/validators/modifyOrderResponse.js';
import { operationValidation } from '../operationValidation.js';

export const modifyOrder = operationValidation('modifyOrder', request, response);
export const { validateRequest, validateResponse } = modifyOrder;
