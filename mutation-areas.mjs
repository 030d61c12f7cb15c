// @ts-check
// The mutation testing areas (docs/testing.md), shared by stryker.config.mjs and
// vitest.mutation.config.ts. No side effects: the vitest config reads the area from the environment.

/**
 * What each area mutates (the rules and the security-relevant code, not the wiring), and the
 * tests that must kill its mutants: the package's own, so a mutant of the SDK is not counted
 * as killed by an emulator test that happens to import the SDK.
 */
export const MUTATION_AREAS = {
  sdk: {
    mutate: [
      'packages/sdk/src/webhooks/**/*.ts',
      'packages/sdk/src/core/**/*.ts',
      'packages/sdk/src/errors/**/*.ts',
    ],
    tests: ['packages/sdk/src/**/*.test.ts'],
  },
  emulator: {
    mutate: [
      'packages/emulator/src/domain/**/*.ts',
      'packages/emulator/src/webhooks/url-policy.ts',
      'packages/emulator/src/webhooks/_ip-address.ts',
    ],
    // The rules' own unit tests, next to each rule file (issue 10): a rule is right when its
    // own small test says so, not because some HTTP test happens to pass through it. They run
    // in about 2 s, so the ~330 static mutants (module-level tables: fixtures, magic recipients,
    // patterns), each of which runs every test of the area, take minutes instead of hours.
    tests: [
      'packages/emulator/src/domain/**/*.test.ts',
      'packages/emulator/src/webhooks/url-policy.test.ts',
      'packages/emulator/src/webhooks/_ip-address.test.ts',
    ],
  },
  // The emulator's rules that live partly in core/ (issue 22), one area each, so a run of one is a
  // few minutes: each holds its rule to the unit tests named for its behaviour.
  'emulator-idempotency': {
    mutate: ['packages/emulator/src/domain/idempotency.ts', 'packages/emulator/src/core/send-idempotency.ts'],
    tests: [
      'packages/emulator/src/domain/idempotency.test.ts',
      'packages/emulator/src/core/send-idempotency-holds.test.ts',
    ],
  },
  'emulator-signing-secrets': {
    mutate: ['packages/emulator/src/domain/signing-secret.ts'],
    tests: [
      'packages/emulator/src/domain/signing-secret.test.ts',
      'packages/emulator/src/domain/signing-secret-rotation.test.ts',
    ],
  },
  'emulator-rate-limits': {
    mutate: [
      'packages/emulator/src/domain/rate-limit-window.ts',
      'packages/emulator/src/core/rate-limits.ts',
    ],
    tests: [
      'packages/emulator/src/domain/rate-limit-window.test.ts',
      'packages/emulator/src/core/rate-limits-refusals.test.ts',
    ],
  },
  'emulator-retry-schedules': {
    mutate: ['packages/emulator/src/domain/retry-schedule.ts'],
    tests: ['packages/emulator/src/domain/retry-schedule.test.ts'],
  },
  'emulator-admission': {
    mutate: ['packages/emulator/src/core/admission.ts'],
    tests: ['packages/emulator/src/core/admission-order.test.ts'],
  },
};
