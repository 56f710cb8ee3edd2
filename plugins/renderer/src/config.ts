import type { ConfigRule } from '@hickory/core';
import { confdirPath } from '@hickory/core/kit';

/**
 * The configuration keys every renderer declares (through its plugin's `config` field):
 * `template_path` (the templates' directory, `%(confdir)s` substituted; default
 * `<confdir>/templates`), `extra_template_vars` (an object merged under every namespace) and `template_cache`
 * (`false` re-reads templates on every render, for development; default `true`).
 *
 * @example
 * ```ts
 * createKernel({ template_path: '%(confdir)s/templates', template_cache: false, extra_template_vars: { site: 'Hickory' } });
 * ```
 */
export const RENDERER_CONFIG: Readonly<Record<string, ConfigRule>> = Object.freeze({
  template_path: confdirPath,
  extra_template_vars: (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'must be an object of template variables such as { site: "Hickory" }',
  template_cache: (v) => (typeof v === 'boolean' ? undefined : 'must be true (cache compiled templates) or false (re-read them on every render)'),
});
