import { and, defineActions, fieldTest, TRUE, type ActionRequest, type FieldMeta, type ModelClass, type ModelMeta } from '../../framework';
import { DeviceRole } from '../dcim/device-role';
import { DeviceType } from '../dcim/device-type';
import { Device } from '../dcim/device';
import { Interface } from '../dcim/interface';
import { Manufacturer } from '../dcim/manufacturer';
import { Platform } from '../dcim/platform';
import { Region } from '../dcim/region';
import { Site } from '../dcim/site';
import { Aggregate } from '../ipam/aggregate';
import { IPAddress } from '../ipam/ip-address';
import { Prefix } from '../ipam/prefix';
import { RIR } from '../ipam/rir';
import { Role } from '../ipam/role';
import { RouteTarget } from '../ipam/route-target';
import { VLANGroup } from '../ipam/vlan-group';
import { Service } from '../ipam/service';
import { VLAN } from '../ipam/vlan';
import { VRF } from '../ipam/vrf';
import { TenantGroup } from '../tenancy/tenant-group';
import { Tenant } from '../tenancy/tenant';
import { ClusterGroup } from '../virtualization/cluster-group';
import { ClusterType } from '../virtualization/cluster-type';
import { Cluster } from '../virtualization/cluster';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { VMInterface } from '../virtualization/vm-interface';
import { ComputedField } from './computed-field';
import { CustomField } from './custom-field';
import { Relationship } from './relationship';
import { Webhook } from './webhook';
import { ConfigContext, ConfigContextSchema } from './config-context';
import { CustomLink } from './custom-link';
import { ExportTemplate } from './export-template';
import { Note } from './note';
import { Status } from './status';
import { Tag } from './tag';

/** The models whose objects offer `/<id>/notes/`, as the catalogue lists them. */
const NOTED: ModelClass[] = [
  Region, Site, Manufacturer, DeviceType, DeviceRole, Platform, Device, Interface,
  VRF, RouteTarget, RIR, Aggregate, Role, Prefix, IPAddress, VLANGroup, VLAN, Service,
  TenantGroup, Tenant, ClusterType, ClusterGroup, Cluster, VirtualMachine, VMInterface,
  Status, Tag, ConfigContext, ConfigContextSchema, CustomLink, ExportTemplate,
  ComputedField, CustomField, Relationship, Webhook,
];

function notesOf(req: ActionRequest, model: ModelMeta) {
  const note = req.meta(Note);
  return and([
    fieldTest(note.field('assigned_object_type') as FieldMeta, 'exact', [model.label]),
    fieldTest(note.field('assigned_object_id') as FieldMeta, 'exact', [req.id]),
  ]);
}

/** The object's notes, oldest first, paginated. An object the caller cannot see is a 404. */
async function listNotes(req: ActionRequest) {
  await req.object(req.ctx.db.reader, await req.restrict(req.model.cls, 'view'));
  return req.list(Note, notesOf(req, req.model));
}

/**
 * `{"note": "…"}` attaches a note to the object, authored by the requester. As in Nautobot the
 * parent model's permissions decide (the route requires `add` on it), not the note model's.
 */
async function addNote(req: ActionRequest) {
  await req.object(req.ctx.db.reader, await req.restrict(req.model.cls, 'view'));
  const body = req.body();
  const item = body !== null && typeof body === 'object' && !Array.isArray(body)
    ? { ...(body as Record<string, unknown>), assigned_object_type: req.model.label, assigned_object_id: req.id }
    : body;
  const ids = await req.transaction(Note, (tx) => req.create(tx, Note, [item], false, TRUE));
  return { status: 201, body: await req.render(Note, ids, false) };
}

export const noteActions = NOTED.flatMap((cls) =>
  defineActions(cls, {
    notes: {
      detail: true,
      GET: { action: 'view', handler: listNotes },
      POST: { action: 'add', handler: addNote },
    },
  }),
);
