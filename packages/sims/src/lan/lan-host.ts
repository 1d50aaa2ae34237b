/** The loopback address every virtual LAN device binds to (lan-lights.md §5: never a LAN address). */
export const LAN_SIM_HOST = '127.0.0.1';
