// A controller reachable at two paths, only one of which passes a `secure` check (issue #29): the
// development warning names the path that skips the check and suggests hiding that one — never
// renaming the secured section, which would leave only the unchecked path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp, expose, secure, SecureController, unlocked, type Request } from '@hickory/app';

class Reports {
  @expose() index() {
    return 'reports';
  }
}
class Help {
  @expose() index() {
    return 'help';
  }
}
class AdminSection extends SecureController {
  static override check_permissions(request: Request) {
    return request.headers['x-admin'] === 'yes';
  }
  reports = new Reports();
  help = unlocked(new Help());
}

async function warningsOf(root: object): Promise<{ warnings: string[]; app: ReturnType<typeof createApp> }> {
  const before = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'development';
  const warnings: string[] = [];
  const app = createApp({ root, logger: { info() {}, warn: (m: string) => void warnings.push(m), error() {} } });
  try {
    await app.ready();
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
  return { warnings, app };
}

const WHY = "routing follows every public field, and TypeScript's private or protected does not hide one";

test('the unchecked path is the shorter one: the warning names it, not the secured section', async () => {
  class Root {
    admin = new AdminSection();
    reports = this.admin.reports; // a shortcut that skips the admin check
  }
  const { warnings, app } = await warningsOf(new Root());
  try {
    assert.deepEqual(warnings, [
      `Reports is routable at /admin/reports/, behind the security check of /admin/, and again at /reports/, which skips that check: ${WHY}. ` +
        'If /reports/ is not meant to be a URL, rename the field reports to #reports or _reports (hide this path, not the secured one).',
    ]);
    // What the warning is about: the shortcut answers without the check.
    assert.equal((await app.inject('/admin/reports/')).statusCode, 401);
    assert.equal((await app.inject('/reports/')).statusCode, 200);
  } finally {
    await app.close();
  }
});

test('the unchecked path is the second one found: the warning still names it', async () => {
  const section = secure(new (class Section { reports = new Reports(); })(), (request: Request) => request.headers['x-admin'] === 'yes');
  class Root {
    admin = section;
    shelf = { reports: section.reports };
  }
  const { warnings, app } = await warningsOf(new Root());
  await app.close();
  assert.deepEqual(warnings, [
    `Reports is routable at /admin/reports/, behind the security check of /admin/, and again at /shelf/reports/, which skips that check: ${WHY}. ` +
      'If /shelf/reports/ is not meant to be a URL, rename the field shelf to #shelf or _shelf (hide this path, not the secured one).',
  ]);
});

test('both paths checked, or neither (an unlocked child): the plain warning', async () => {
  const guarded = secure(new Reports(), () => true);
  class Both {
    one = { guarded };
    two = { guarded };
  }
  const both = await warningsOf(new Both());
  await both.app.close();
  assert.deepEqual(both.warnings, [`Reports is routable at /one/guarded/ and again at /two/guarded/: ${WHY}. If /two/guarded/ is not meant to be a URL, rename the field two to #two or _two.`]);

  class Neither {
    admin = new AdminSection();
    help = this.admin.help;
  }
  const neither = await warningsOf(new Neither());
  await neither.app.close();
  assert.deepEqual(neither.warnings.filter((w) => w.startsWith('Help')), [`Help is routable at /help/ and again at /admin/help/: ${WHY}. If /admin/help/ is not meant to be a URL, rename the field admin to #admin or _admin.`]);
});
