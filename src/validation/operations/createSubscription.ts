// `gateway-contract/validators/createSubscription`: the validation of createSubscription alone, on its own validators.
import * as validators from '../../../generated/validators/createSubscription.js';
import { operationValidation } from '../operationValidation.js';

export const createSubscription = operationValidation('createSubscription', validators);
export const { validateRequest, validateResponse } = createSubscription;
