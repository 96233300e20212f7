// `gateway-contract/validators/tokenizeCard`: the validation of tokenizeCard alone, on its own validators.
import * as request from '../../../generated/validators/tokenizeCardRequest.js';
import * as response from '../../../generated/validators/tokenizeCardResponse.js';
import { operationValidation } from '../operationValidation.js';

export const tokenizeCard = operationValidation('tokenizeCard', request, response);
export const { validateRequest, validateResponse } = tokenizeCard;
