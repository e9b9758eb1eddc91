import { defineActions, type ActionRequest } from '../../framework';
import { AutonomousSystem, PeerSession } from './models';

/** `GET /api/plugins/bgp/autonomous-systems/<id>/sessions/`: the sessions where this AS is local. */
async function sessionsOf(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const as = await req.object(db, await req.restrict(AutonomousSystem, 'view'));
  const rows = await req.find(db, PeerSession, { local_as: as.id });
  return { status: 200, body: await req.render(PeerSession, rows.map((r) => r.id as string), true) };
}

export const autonomousSystemActions = defineActions(AutonomousSystem, {
  sessions: { detail: true, GET: { action: 'view', permissionModel: PeerSession, handler: sessionsOf } },
});
