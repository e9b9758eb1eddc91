import { and, defineActions, FALSE, PermissionDenied, type ActionRequest, type Predicate } from '../../framework';
import { DynamicGroup, memberCondition } from './dynamic-group';

/** Parameters the members list reads; any other (filters included) is ignored, as in Nautobot. */
const MEMBER_PARAMS = new Set(['limit', 'offset', 'include', 'format', 'api_version']);

/**
 * GET `/members/`: the group's current members the caller may view, computed live by the
 * member model's filter set, paginated and rendered as that model's list endpoint renders them.
 * Query filters are ignored (only paging and `include` count); devices and VMs come without
 * `config_context`, as Nautobot's plain serializer gives them.
 */
async function members(req: ActionRequest) {
  const group = await req.object(req.ctx.db.reader, await req.restrict(DynamicGroup, 'view'));
  const model = req.ctx.registry.get(group.content_type as string);
  if (!model) return req.paginate([]);
  const condition = await memberCondition(req.ctx.db.reader, req.ctx.registry, group);
  const query = req.ctx.query;
  for (const name of [...query.keys()]) if (!MEMBER_PARAMS.has(name)) query.delete(name);
  query.set('exclude', ['config_context']);
  // Without view permission on the member model the list is empty (Nautobot's restrict()), not a 403.
  let restrict: Predicate = FALSE;
  try {
    restrict = await req.args.restrictFor(model, 'view');
  } catch (err) {
    if (!(err instanceof PermissionDenied)) throw err;
  }
  return req.list(model.cls, and([restrict, condition]));
}

export const dynamicGroupActions = defineActions(DynamicGroup, {
  members: {
    detail: true,
    GET: {
      action: 'view',
      handler: members,
      doc: { description: 'The objects currently in the group (only those the caller may view), paginated.' },
    },
  },
});
