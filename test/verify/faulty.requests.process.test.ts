// verify against the faulty implementations that carry out a request breaking a rule, or refuse a
// valid one: the phase of generated requests finds each, naming its rule (test/verify/faulty/).
import { FAULTS } from './faulty/faults.js';
import { verifyFindsEach } from './faulty/suite.js';

verifyFindsEach(
  'verify finds the faults of refusals and acceptance',
  FAULTS.filter((f) => f.kind === 'refusal' || f.kind === 'acceptance'),
);
