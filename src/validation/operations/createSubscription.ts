// `gateway-contract/validators/createSubscription`: the validation of createSubscription alone, on its own validators.
import * as request from '../../../generated/validators/createSubscriptionRequest.js';
import * as response from '../../../generated/validators/createSubscriptionResponse.js';
import { operationValidation } from '../operationValidation.js';

export const createSubscription = operationValidation('createSubscription', request, response);
export const { validateRequest, validateResponse } = createSubscription;
