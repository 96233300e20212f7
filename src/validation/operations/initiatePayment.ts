// `gateway-contract/validators/initiatePayment`: the validation of initiatePayment alone, on its own validators.
import * as request from '../../../generated/validators/initiatePaymentRequest.js';
import * as response from '../../../generated/validators/initiatePaymentResponse.js';
import { operationValidation } from '../operationValidation.js';

export const initiatePayment = operationValidation('initiatePayment', request, response);
export const { validateRequest, validateResponse } = initiatePayment;
