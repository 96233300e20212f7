// `gateway-contract/validators/notifyTokenStatus`: the validation of notifyTokenStatus alone, on its own validators.
import * as validators from '../../../generated/validators/notifyTokenStatus.js';
import { operationValidation } from '../operationValidation.js';

export const notifyTokenStatus = operationValidation('notifyTokenStatus', validators);
export const { validateRequest, validateResponse } = notifyTokenStatus;
