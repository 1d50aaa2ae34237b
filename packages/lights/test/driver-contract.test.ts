import { describeDriverContract } from './driver-contract.js';
import { DRIVER_HARNESSES } from './driver-harnesses.js';

// Issue 16: one suite over every driver, each against its simulator on 127.0.0.1.
for (const harness of DRIVER_HARNESSES) describeDriverContract(harness);
