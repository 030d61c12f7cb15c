import type { MessageStatus } from '../wire/message';

/**
 * Where `createWebhookHandler` remembers the ids of events it processed, so a retried or
 * replayed delivery is answered 2xx without running your handler again. The default keeps
 * 10,000 ids for 24 h in memory; share one store (Redis, your database) between instances.
 * Methods may return promises.
 *
 * @example
 * // Redis (node-redis): one key per event id, expiring by itself.
 * const dedupe: WebhookDedupeStore = {
 *   has: async (id) => (await redis.exists(`parley:event:${id}`)) === 1,
 *   add: async (id, ttlSeconds) => void (await redis.set(`parley:event:${id}`, '1', { EX: ttlSeconds })),
 * };
 */
export interface WebhookDedupeStore {
  /** Whether the event `id` was already processed successfully. */
  has(id: string): boolean | Promise<boolean>;
  /** Records `id` as processed; called only after its handler succeeded. Keep it `ttlSeconds` at least. */
  add(id: string, ttlSeconds: number): unknown;
}

/**
 * Where `createWebhookHandler` remembers the latest status it processed per message, so an
 * older `message.status_updated` that arrives late (a retry) is dropped. The default keeps
 * 10,000 messages for 24 h in memory. Methods may return promises.
 *
 * @example
 * // SQL: a row per message (PostgreSQL upsert).
 * const statuses: WebhookStatusStore = {
 *   get: async (messageId) => (await sql`select status from parley_status where id = ${messageId}`)[0]?.status,
 *   set: async (messageId, status) =>
 *     sql`insert into parley_status (id, status) values (${messageId}, ${status})
 *         on conflict (id) do update set status = excluded.status`,
 * };
 */
export interface WebhookStatusStore {
  /** The status last processed for `messageId`, or undefined when none is known. */
  get(messageId: string): MessageStatus | undefined | Promise<MessageStatus | undefined>;
  /** Records `status` for `messageId`; called only after its handler succeeded. Keep it `ttlSeconds` at least. */
  set(messageId: string, status: MessageStatus, ttlSeconds: number): unknown;
}
