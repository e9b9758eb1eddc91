import { Job, JobInfo, Var, type JobContext, type Json } from '../../framework';
import { AutonomousSystem } from './models';

/** A read-only report: counts the autonomous systems, logging each one below a minimum ASN. */
@JobInfo({
  name: 'AS report',
  description: 'Lists the autonomous systems; warns about private ASNs.',
  read_only: true,
  has_sensitive_variables: false,
})
export class AutonomousSystemReport extends Job {
  @Var.Boolean({ label: 'Warn about private ASNs', default: true })
  warn_private!: boolean;

  async run(ctx: JobContext): Promise<Json> {
    const systems = await ctx.store.find(AutonomousSystem);
    for (const system of systems) {
      const asn = Number(system.asn);
      const privateAsn = (asn >= 64512 && asn <= 65534) || (asn >= 4200000000 && asn <= 4294967294);
      if (privateAsn && this.warn_private) await ctx.logWarning(`AS${asn} is a private ASN`, { display: `AS${asn}`, id: system.id });
      else await ctx.logSuccess(`AS${asn}`, { display: `AS${asn}`, id: system.id });
    }
    return { count: systems.length };
  }
}

/** Creates an autonomous system: with commit off (a dry run) nothing stays. */
@JobInfo({
  name: 'Create AS',
  description: 'Creates an autonomous system with the given ASN.',
  has_sensitive_variables: false,
})
export class CreateAutonomousSystem extends Job {
  @Var.Integer({ label: 'ASN', min_value: 1, max_value: 4294967295 })
  asn!: number;

  @Var.String({ required: false, max_length: 200, default: '' })
  description!: string;

  async run(ctx: JobContext): Promise<Json> {
    const id = await ctx.create(AutonomousSystem, { asn: this.asn, description: this.description ?? '' });
    await ctx.logSuccess(`Created AS${this.asn}`, { display: `AS${this.asn}`, id });
    return { id };
  }
}
