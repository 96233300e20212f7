// verify against the faulty implementations whose fault is in what an answer says: every phase
// runs (whichever meets the answer finds it), and each fault is found with its rule
// (test/verify/faulty/).
import { FAULTS } from './faulty/faults.js';
import { verifyFindsEach } from './faulty/suite.js';

verifyFindsEach(
  'verify finds the faults of answers',
  FAULTS.filter((f) => f.kind === 'answer'),
);
