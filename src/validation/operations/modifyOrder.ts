// `gateway-contract/validators/modifyOrder`: the validation of modifyOrder alone, on its own validators.
import * as validators from '../../../generated/validators/modifyOrder.js';
import { operationValidation } from '../operationValidation.js';

export const modifyOrder = operationValidation('modifyOrder', validators);
export const { validateRequest, validateResponse } = modifyOrder;
