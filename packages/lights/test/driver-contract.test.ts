import { describeDriverContract } from './driver-contract.js';
import { DRIVER_HARNESSES } from './driver-harnesses.js';

// One suite over every driver, each against its simulator on 127.0.0.1: a new brand is cheap to
// add because it must keep the same promises.
for (const harness of DRIVER_HARNESSES) describeDriverContract(harness);
