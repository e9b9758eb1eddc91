import { defineApp } from '../../framework';
import { Status } from './status';
import { TaggedItem, Tag } from './tag';

export { Status, Tag, TaggedItem };

export default defineApp('extras', [Status, Tag, TaggedItem], {
  provides: { tags: { tag: () => Tag, through: () => TaggedItem } },
});
