// The benches start servers on ports the OS picked a moment ago (the simulators' helper).
export { findFreeTcpPort as freePort } from '@flaglight/sims';
