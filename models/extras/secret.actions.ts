import { defineActions, SecretError, Store, type ActionRequest, type JsonObject } from '../../framework';
import { readSecret, Secret } from './secret';

/**
 * GET `/check/`: tries to read the secret's value and says whether it could, never what it is:
 * `{"result": true, "message": "Passed"}` or `{"result": false, "message": "<Nautobot's error>"}`.
 */
async function check(req: ActionRequest) {
  const secret = await req.object(req.ctx.db.reader, await req.restrict(Secret, 'view'));
  try {
    await readSecret(new Store(req.ctx.db.reader, req.ctx.registry), secret);
    return { status: 200, body: { result: true, message: 'Passed' } as JsonObject };
  } catch (err) {
    if (err instanceof SecretError) return { status: 200, body: { result: false, message: String(err) } as JsonObject };
    throw err;
  }
}

export const secretActions = defineActions(Secret, {
  check: {
    detail: true,
    GET: {
      action: 'view',
      handler: check,
      doc: { description: 'Tries to read the secret\'s value without revealing it: `{"result": true|false, "message": "…"}`.' },
    },
  },
});
