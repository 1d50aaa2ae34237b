// Prints the time-weighted agreement of derived flags with F1's TrackStatus, per session and overall,
// for race control alone and for `--source f1` (decision 018).
import { printAgreementReport } from './agreement-report.js';

printAgreementReport();
