// `gateway-contract/validators/tokenizeCard`: the validation of tokenizeCard alone, on its own validators.
import * as validators from '../../../generated/validators/tokenizeCard.js';
import { operationValidation } from '../operationValidation.js';

export const tokenizeCard = operationValidation('tokenizeCard', validators);
export const { validateRequest, validateResponse } = tokenizeCard;
