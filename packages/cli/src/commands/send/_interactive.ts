import { confirm, input as inputPrompt, Separator, select as selectPrompt } from '@inquirer/prompts';
import type { Connection, Template } from '@parley/sdk';
import type { ApiSession } from '../../client/api-session';
import { allTemplates } from '../../client/connection-templates';
import type { CommandContext } from '../../context';
import { EXIT, ExitError, usageError } from '../../exit-error';
import { terminalSafe as safe } from '../../output/terminal-safe';
import { validPhone, validText } from './_prompt-rules';
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
  const promptContext = { output: process.stderr as NodeJS.WritableStream, signal: context.signal };
  let asked = false;
  const select = counting(selectPrompt, () => {
    asked = true;
  });
  const input = counting(inputPrompt, () => {
    asked = true;
  });
  const next: SendDraft = { ...draft, variables: [...draft.variables] };
  let connection: Connection | undefined;
  if (!next.connection) {
    const connections = await api.call(async (client) => {
      const all: Connection[] = [];
      for await (const candidate of client.connections.list({ limit: 100 })) all.push(candidate);
      return all;
    });
    connection = await select(
      {
        message: 'Connection',
        choices: connections.map((candidate) => ({
          value: candidate,
          // The choices show the server's strings; the values stay as sent back to it.
          name: `${safe(candidate.name)}  ${safe(candidate.phone_number)}`,
          short: safe(candidate.name),
          description: safe(candidate.id),
          disabled: candidate.status === 'active' ? false : `(${safe(candidate.status)})`,
        })),
      },
      promptContext,
    );
    next.connection = connection.id;
  }
  let template: Template | undefined;
  if (next.template === undefined && next.text === undefined) {
    const templates = await allTemplates(api, next.connection);
    const choice = await select<Template | typeof TEXT_CHOICE>(
      {
        message: 'Template',
        choices: [
          ...templates.map((candidate) => ({
            value: candidate,
            name: `${safe(candidate.name)} (${safe(candidate.language)})`,
            description: safe(candidate.body),
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
      template = choice;
    }
  } else if (next.template !== undefined) {
    template = await namedTemplate(api, next, select, promptContext);
  }
  if (template) {
    next.template = template.name;
    next.language = template.language;
    for (let index = next.variables.length; index < template.variable_count; index++) {
      const placeholder = `{{${index + 1}}}`;
      const shown = safe(template.body).replace(placeholder, context.style.bold.underline(placeholder));
      next.variables.push(
        await input({ message: `${placeholder} in "${shown}"`, required: true }, promptContext),
      );
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
  // Everything came from flags (e.g. a template without variables): nothing to confirm.
  if (!asked) return next;
  const what =
    next.text !== undefined ? 'this text' : `${safe(String(next.template))} (${safe(next.language ?? '?')})`;
  const from = connection ? ` from ${safe(connection.name)}` : '';
  if (!(await confirm({ message: `Send ${what} to ${next.to}${from}?`, default: true }, promptContext))) {
    throw new ExitError(EXIT.interrupted, 'not sent: cancelled at the confirmation');
  }
  return next;
}

/** The same prompt, noting that something was asked. */
function counting<Prompt extends (...args: never[]) => unknown>(prompt: Prompt, onAsk: () => void): Prompt {
  return ((...args: Parameters<Prompt>) => {
    onAsk();
    return prompt(...args);
  }) as Prompt;
}

/** The template named by --template (and --language): asks for the language when it is ambiguous. */
async function namedTemplate(
  api: ApiSession,
  draft: SendDraft,
  select: typeof selectPrompt,
  promptContext: { output: NodeJS.WritableStream; signal: AbortSignal },
): Promise<Template> {
  const matches = (await allTemplates(api, draft.connection!)).filter(
    (candidate) =>
      candidate.name === draft.template && (!draft.language || candidate.language === draft.language),
  );
  if (matches.length === 0) {
    throw usageError(
      `no template "${draft.template}"${draft.language ? ` in ${draft.language}` : ''} on connection ${draft.connection}: see \`parley templates list --connection ${draft.connection}\``,
    );
  }
  if (matches.length === 1) return matches[0]!;
  return select(
    {
      message: 'Language',
      choices: matches.map((candidate) => ({
        value: candidate,
        name: safe(candidate.language),
        description: safe(candidate.body),
      })),
    },
    promptContext,
  );
}
