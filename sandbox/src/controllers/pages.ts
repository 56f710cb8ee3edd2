import { expose } from '@hickory/dispatch';

const ITEMS = ['object dispatch', 'REST controllers', 'uploads and downloads', 'three template engines'];

/**
 * `/pages/<engine>?comment=...`: one page per template engine, each with a shared layout, an
 * include, a list, and the visitor's comment escaped.
 *
 * @example
 * ```ts
 * (await app.inject('/pages/ejs?comment=<b>hi</b>')).body; // contains &lt;b&gt;hi&lt;/b&gt;
 * ```
 */
export class PagesController {
  @expose('layout/page.ejs')
  index() {
    return {
      title: 'Templates',
      body: '<h1>Templates</h1><p>One page per engine, each on the site\'s layout in that engine\'s own way.</p><ul><li><a href="ejs">ejs</a></li><li><a href="nunjucks">nunjucks</a></li><li><a href="handlebars">handlebars</a></li></ul>\n',
    };
  }

  @expose('ejs/page.ejs')
  ejs(comment = '') {
    return { title: 'An ejs page', items: ITEMS, comment };
  }

  @expose('nunjucks/page.njk')
  nunjucks(comment = '') {
    return { title: 'A nunjucks page', items: ITEMS, comment };
  }

  @expose('handlebars/page.hbs')
  handlebars(comment = '') {
    return { title: 'A handlebars page', items: ITEMS, comment };
  }
}
