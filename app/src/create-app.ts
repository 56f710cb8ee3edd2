import { createKernel, type Kernel, type KernelConfig } from '@hickory/core';
import { dispatchPlugin } from '@hickory/dispatch';
import { restPlugin } from '@hickory/rest';
import { multipartPlugin } from '@hickory/multipart';
import { staticPlugin } from '@hickory/static';
import { ejsRenderer } from '@hickory/ejs';
import { nunjucksRenderer } from '@hickory/nunjucks';
import { handlebarsRenderer } from '@hickory/handlebars';

/**
 * A kernel with every first-party plugin in use: object dispatch, REST, multipart uploads,
 * static files and the ejs, nunjucks and handlebars renderers.
 *
 * @example
 * ```ts
 * const app = createApp({ root: new RootController(), template_path: './templates' });
 * await app.listen({ port: 8080 });
 * ```
 */
export function createApp(config: KernelConfig = {}): Kernel {
  return createKernel(config)
    .use(dispatchPlugin)
    .use(restPlugin)
    .use(multipartPlugin)
    .use(staticPlugin)
    .use(ejsRenderer)
    .use(nunjucksRenderer)
    .use(handlebarsRenderer);
}
