// `gateway-contract/validators/initiatePayment`: the validation of initiatePayment alone, on its own validators.
import * as validators from '../../../generated/validators/initiatePayment.js';
import { operationValidation } from '../operationValidation.js';

export const initiatePayment = operationValidation('initiatePayment', validators);
export const { validateRequest, validateResponse } = initiatePayment;
