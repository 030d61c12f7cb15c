/** Id of the workspace every emulator starts with ("the seed workspace", DESIGN §4). */
export const DEFAULT_WORKSPACE_ID = 'a7e1c0de-0000-4000-8000-000000000001';
/** Id of the sandbox application that holds the ready key. */
export const DEFAULT_APPLICATION_ID = 'a7e1c0de-0000-4000-8000-000000000002';
/** Id of the ready sandbox key. */
export const DEFAULT_KEY_ID = 'a7e1c0de-0000-4000-8000-000000000003';
/**
 * The ready sandbox key, holding every scope. Deterministic on purpose, so a `.env` written once
 * keeps working across restarts; it only ever opens this local emulator.
 */
export const DEFAULT_SANDBOX_KEY = 'prl_sandbox_parleyEmulatorDefaultSandboxKey1';
/** Creation time of the default records. */
export const DEFAULT_CREATED_AT = '2026-10-14T00:00:00Z';
