// The workspace's labels: what a comment shows of one, and what creating or changing one takes.
import { type Static, Type } from 'typebox';
import { Name } from './common.js';
import { LABEL_COLORS } from './rules.js';

export const Label = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.Enum(LABEL_COLORS),
});
export type Label = Static<typeof Label>;

export const CreateLabelBody = Type.Object(
  { name: Name(40), color: Type.Enum(LABEL_COLORS) },
  { examples: [{ name: 'Bug', color: 'red' }] },
);
export type CreateLabelBody = Static<typeof CreateLabelBody>;

export const UpdateLabelBody = Type.Object(
  { name: Type.Optional(Name(40)), color: Type.Optional(Type.Enum(LABEL_COLORS)) },
  { examples: [{ color: 'orange' }] },
);
export type UpdateLabelBody = Static<typeof UpdateLabelBody>;
