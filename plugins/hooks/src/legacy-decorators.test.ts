// Every decorator the packages export, called the way TypeScript compiles it under
// "experimentalDecorators": true — (prototype, name, descriptor) for a method — fails with the one
// shared error that names that setting and the fix (issue #31), not a misleading one (or none:
// `@unlocked` used to open nothing, silently).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expose, when } from '@hickory/dispatch';
import { after_commit, after_rollback, Hook, hooks, secure, transactional, unlocked } from '@hickory/hooks';

class Books {
  index() { return ''; }
  static count() { return 0; }
}

const descriptor = Object.getOwnPropertyDescriptor(Books.prototype, 'index')!;
const staticDescriptor = Object.getOwnPropertyDescriptor(Books, 'count')!;

// What each exported decorator gives back to be applied (the decorator itself for `unlocked`).
const decorators: Array<[string, unknown]> = [
  ['expose', expose('json')],
  ['when', when('index', { method: 'POST' })],
  ['secure', secure(() => true)],
  ['unlocked', unlocked],
  ['hooks', hooks(new Hook())],
  ['transactional', transactional()],
  ['after_commit', after_commit(() => {})],
  ['after_rollback', after_rollback(() => {})],
];

const setting = /was called as a legacy decorator \(target, name, descriptor\), as TypeScript compiles decorators under "experimentalDecorators": true\. Hickory's decorators are TC39 standard decorators: remove experimentalDecorators \(and emitDecoratorMetadata\) from tsconfig\.json\.$/;

for (const [name, decorator] of decorators) {
  test(`@${name} called as a legacy method decorator names experimentalDecorators`, () => {
    const legacy = decorator as (target: object, key: string | symbol, descriptor: PropertyDescriptor) => unknown;
    assert.throws(() => legacy(Books.prototype, 'index', descriptor), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'HICKORY_ERR_DISPATCH_LEGACY_DECORATOR');
      assert.ok(error.message.startsWith(`@${name} on Books.index `), error.message);
      assert.match(error.message, setting);
      return true;
    });
    // A static method: the target is the class itself.
    assert.throws(() => legacy(Books, 'count', staticDescriptor), { code: 'HICKORY_ERR_DISPATCH_LEGACY_DECORATOR', message: new RegExp(`^@${name} on Books\\.count `) });
    // A symbol-named member.
    assert.throws(() => legacy(Books.prototype, Symbol('tag'), descriptor), { code: 'HICKORY_ERR_DISPATCH_LEGACY_DECORATOR', message: new RegExp(`^@${name} on Books\\.Symbol\\(tag\\) `) });
  });
}
