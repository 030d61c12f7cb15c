import { isPhoneNumber } from '@parley/sdk';
import { TEMPLATE_DEFINITIONS } from '../domain/sandbox-fixtures';
import { array, fail, object, optionalId, text } from './_seed-fields';
import type { SeedConnection, SeedTemplate } from './seed-types';

const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const CATEGORIES = ['UTILITY', 'MARKETING', 'AUTHENTICATION'];
/** WhatsApp's limit on a template body. */
const MAX_BODY_LENGTH = 1024;

/** One `connections[i]` of a live application of a seed, with its own templates. */
export function parseSeedConnection(raw: unknown, path: string, ids: Set<string>): SeedConnection {
  const connection = object(raw, path, ['id', 'phone_number', 'name', 'templates']);
  const id = optionalId(connection.id, `${path}.id`, ids);
  if (!isPhoneNumber(connection.phone_number)) {
    fail(`${path}.phone_number`, 'must be "+" followed by 8 to 15 digits');
  }
  // The two templates every connection carries are taken: a seeded one may not shadow them.
  const taken = new Set(TEMPLATE_DEFINITIONS.map((template) => `${template.name}\n${template.language}`));
  const templates = array(connection.templates, `${path}.templates`).map((rawTemplate, index) => {
    const templatePath = `${path}.templates[${index}]`;
    const template = parseSeedTemplate(rawTemplate, templatePath);
    const slot = `${template.name}\n${template.language}`;
    if (taken.has(slot)) {
      fail(`${templatePath}.name`, `${template.name} (${template.language}) is already on this connection`);
    }
    taken.add(slot);
    return template;
  });
  return {
    ...(id ? { id } : {}),
    phone_number: connection.phone_number,
    ...(connection.name === undefined ? {} : { name: text(connection.name, `${path}.name`) }),
    ...(templates.length > 0 ? { templates } : {}),
  };
}

function parseSeedTemplate(raw: unknown, path: string): Required<SeedTemplate> {
  const template = object(raw, path, ['name', 'language', 'category', 'body', 'variable_count']);
  const { name, language, category = 'UTILITY', variable_count: given } = template;
  if (typeof name !== 'string' || !TEMPLATE_NAME.test(name)) {
    fail(`${path}.name`, 'must be 1 to 512 lowercase letters, digits or underscores');
  }
  if (typeof language !== 'string' || !LANGUAGE.test(language)) {
    fail(`${path}.language`, 'must be a language code such as en, fr or pt_BR');
  }
  if (typeof category !== 'string' || !CATEGORIES.includes(category)) {
    fail(`${path}.category`, `must be one of ${CATEGORIES.join(', ')}`);
  }
  const body = text(template.body, `${path}.body`, MAX_BODY_LENGTH);
  const variableCount = placeholderCount(body, `${path}.body`);
  if (given !== undefined && given !== variableCount) {
    fail(`${path}.variable_count`, `must be ${variableCount}, the number of placeholders in body`);
  }
  return { name, language, category, body, variable_count: variableCount };
}

/** How many variables a body takes: its placeholders must run `{{1}}` … `{{n}}` without a gap. */
function placeholderCount(body: string, path: string): number {
  const numbers = new Set([...body.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1])));
  const count = numbers.size === 0 ? 0 : Math.max(...numbers);
  for (let number = 1; number <= count; number++) {
    if (!numbers.has(number))
      fail(path, `has {{${count}}} but no {{${number}}}: number placeholders from {{1}}`);
  }
  if (numbers.has(0)) fail(path, 'has {{0}}: number placeholders from {{1}}');
  return count;
}
