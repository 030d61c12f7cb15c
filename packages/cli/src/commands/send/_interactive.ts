import { confirm, input, Separator, select } from '@inquirer/prompts';
import type { Connection, Template } from '@parley/sdk';
import type { ApiSession } from '../../client/api-session';
import type { CommandContext } from '../../context';
import { EXIT, ExitError } from '../../exit-error';
import type { SendDraft } from './index';

const TEXT_CHOICE = Symbol('text');

/**
 * Asks for what the flags left out, in a terminal: the connection (only active ones can be
 * picked; disconnected ones are shown greyed), the template or a text, one prompt per template
 * variable showing the body, the recipient, then a confirmation. Prompts go to stderr, so
 * stdout keeps only the data.
 */
export async function completeDraft(
  draft: SendDraft,
  api: ApiSession,
  context: CommandContext,
): Promise<SendDraft> {
  const promptContext = { output: process.stderr, signal: context.signal };
  const next: SendDraft = { ...draft, variables: [...draft.variables] };
  let connection: Connection | undefined;
  if (!next.connection) {
    const connections = await api.call(
      async (client) => (await client.connections.list({ limit: 100 })).data,
    );
    connection = await select(
      {
        message: 'Connection',
        choices: connections.map((candidate) => ({
          value: candidate,
          name: `${candidate.name}  ${candidate.phone_number}`,
          short: candidate.name,
          description: candidate.id,
          disabled: candidate.status === 'active' ? false : `(${candidate.status})`,
        })),
      },
      promptContext,
    );
    next.connection = connection.id;
  }
  if (next.template === undefined && next.text === undefined) {
    const templates = await api.call(
      async (client) => (await client.connections.listTemplates(next.connection!)).data,
    );
    const choice = await select<Template | typeof TEXT_CHOICE>(
      {
        message: 'Template',
        choices: [
          ...templates.map((template) => ({
            value: template,
            name: `${template.name} (${template.language})`,
            description: template.body,
          })),
          new Separator(),
          { value: TEXT_CHOICE, name: 'Text message…', description: 'free text, inside the 24 h window' },
        ],
      },
      promptContext,
    );
    if (choice === TEXT_CHOICE) {
      next.text = await input({ message: 'Text', required: true, validate: validText }, promptContext);
    } else {
      next.template = choice.name;
      next.language = choice.language;
      for (let index = next.variables.length; index < choice.variable_count; index++) {
        const placeholder = `{{${index + 1}}}`;
        const shown = choice.body.replace(placeholder, context.style.bold.underline(placeholder));
        next.variables.push(
          await input({ message: `${placeholder} in "${shown}"`, required: true }, promptContext),
        );
      }
    }
  }
  if (!next.to) {
    next.to = (
      await input(
        { message: 'To (international format, e.g. +33612345678)', required: true, validate: validPhone },
        promptContext,
      )
    ).trim();
  }
  const what = next.text !== undefined ? 'this text' : `${next.template} (${next.language ?? '?'})`;
  const from = connection ? ` from ${connection.name}` : '';
  if (!(await confirm({ message: `Send ${what} to ${next.to}${from}?`, default: true }, promptContext))) {
    throw new ExitError(EXIT.interrupted, 'not sent: cancelled at the confirmation');
  }
  return next;
}

function validPhone(value: string): true | string {
  return /^\+[1-9]\d{6,14}$/.test(value.trim()) || 'a + followed by 7 to 15 digits, e.g. +33612345678';
}

function validText(value: string): true | string {
  return (value.length >= 1 && value.length <= 4096) || 'between 1 and 4096 characters';
}
