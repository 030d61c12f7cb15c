import { SCOPES } from '@parley/sdk';
import { hashKey, keyPrefix } from '../domain/api-keys';
import { createEmptyState, type EmulatorState } from '../store/state';
import {
  DEFAULT_APPLICATION_ID,
  DEFAULT_CREATED_AT,
  DEFAULT_KEY_ID,
  DEFAULT_SANDBOX_KEY,
  DEFAULT_WORKSPACE_ID,
} from './defaults';

/** The state every emulator starts from before its seed: one workspace, one sandbox app, the ready key. */
export function createInitialState(): EmulatorState {
  const state = createEmptyState();
  state.workspaces[DEFAULT_WORKSPACE_ID] = {
    id: DEFAULT_WORKSPACE_ID,
    name: 'Default workspace',
    created_at: DEFAULT_CREATED_AT,
    agreement_accepted_at: null,
  };
  state.applications[DEFAULT_APPLICATION_ID] = {
    id: DEFAULT_APPLICATION_ID,
    workspace_id: DEFAULT_WORKSPACE_ID,
    name: 'Sandbox application',
    environment: 'sandbox',
    created_at: DEFAULT_CREATED_AT,
  };
  state.keys[DEFAULT_KEY_ID] = {
    id: DEFAULT_KEY_ID,
    application_id: DEFAULT_APPLICATION_ID,
    hash: hashKey(DEFAULT_SANDBOX_KEY),
    prefix: keyPrefix(DEFAULT_SANDBOX_KEY),
    scopes: [...SCOPES],
    created_at: DEFAULT_CREATED_AT,
  };
  return state;
}
