import { ValidationError, type Values, type WriteContext } from '../../framework';
import { describeComponent } from './component-names';
import { FrontPort } from './front-port';
import { PowerPort } from './power-port';
import { RearPort } from './rear-port';

/** Nautobot's component clean() rules: links stay on the component's own device. */

/** A front port's rear port is on the same device and has the position. */
export async function checkFrontPort(values: Values, wc: WriteContext): Promise<void> {
  const rear = await wc.store.get(RearPort, values.rear_port as string);
  if (!rear) return;
  if (rear.device !== values.device) {
    throw ValidationError.field('rear_port', `Rear port (${describeComponent(rear)}) must belong to the same device`);
  }
  const position = (values.rear_port_position as number | undefined) ?? 1;
  if (position > (rear.positions as number)) {
    throw ValidationError.field(
      'rear_port_position',
      `Invalid rear port position (${position}): Rear port ${describeComponent(rear)} has only ${String(rear.positions)} positions`,
    );
  }
}

/** A rear port keeps at least as many positions as it has front ports mapped to it. */
export async function checkRearPortPositions(values: Values, wc: WriteContext): Promise<void> {
  if (wc.creating) return;
  const mapped = await wc.store.count(FrontPort, { rear_port: wc.id });
  if ((values.positions as number) < mapped) {
    throw ValidationError.field('positions', `The number of positions cannot be less than the number of mapped front ports (${mapped})`);
  }
}

/** An outlet is fed only by a power port of its own device. */
export async function checkOutletPowerPort(values: Values, wc: WriteContext): Promise<void> {
  if (!values.power_port) return;
  const port = await wc.store.get(PowerPort, values.power_port as string);
  if (port && port.device !== values.device) {
    throw ValidationError.model(`Parent power port (${describeComponent(port)}) must belong to the same device`);
  }
}
