// `gateway-contract/validators/listSubscriptions`: the validation of listSubscriptions alone, on its own validators.
import * as request from '../../../generated/validators/listSubscriptionsRequest.js';
import * as response from '../../../generated/validators/listSubscriptionsResponse.js';
import { operationValidation } from '../operationValidation.js';

export const listSubscriptions = operationValidation('listSubscriptions', request, response);
export const { validateRequest, validateResponse } = listSubscriptions;
