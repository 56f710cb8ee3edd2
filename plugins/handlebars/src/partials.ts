import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RendererContext, TemplateFile } from '@hickory/renderer';

/** The folder (under `template_path`) whose templates are the partials. */
const PARTIALS_DIR = 'partials';

/**
 * Lists the partials under `<template_path>/partials/` (any depth): the partial name is the
 * path inside that folder without the extension (`partials/layouts/main.hbs` → `layouts/main`).
 * A missing folder means no partials.
 *
 * @example
 * ```ts
 * await findPartials(context, ['hbs', 'handlebars']); // Map { 'nav' => { name: 'partials/nav.hbs', … } }
 * ```
 */
export async function findPartials(context: RendererContext, extensions: readonly string[]): Promise<Map<string, TemplateFile>> {
  const found = new Map<string, TemplateFile>();
  let entries: string[];
  try {
    entries = await readdir(join(context.root, PARTIALS_DIR), { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw error;
  }
  for (const entry of entries.sort()) {
    const relative = entry.split('\\').join('/');
    const dot = relative.lastIndexOf('.');
    if (dot <= 0 || !extensions.includes(relative.slice(dot + 1))) continue;
    const name = relative.slice(0, dot);
    if (!found.has(name)) found.set(name, context.resolve(`${PARTIALS_DIR}/${relative}`));
  }
  return found;
}
