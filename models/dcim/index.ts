import { defineApp } from '../../framework';
import { Region } from './region';
import { Site } from './site';

export { Region, Site };

export default defineApp('dcim', [Region, Site], { displayName: 'DCIM' });
