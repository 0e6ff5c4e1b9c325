import { type Static, Type } from 'typebox';

// Who triages a project: those who follow it are told of its new comments (`CommentCreated`)
// and find them in My work while nobody is on them. Admins follow every project, and members
// the projects where they are on a comment, until they leave it; anyone of the team may follow
// or leave any project.

export const ProjectFollowing = Type.Object({
  projectKey: Type.String(),
  following: Type.Boolean({ description: 'true: you are told of its new comments' }),
});
export type ProjectFollowing = Static<typeof ProjectFollowing>;

export const ProjectFollowings = Type.Object({
  items: Type.Array(ProjectFollowing, { description: 'Every project you can see, by key' }),
});

export const FollowingBody = Type.Object(
  { following: Type.Boolean({ description: 'true: follow the project; false: leave it' }) },
  {
    description:
      'Whether you are told of the new comments of the project from now on. Your choice stands over the default (admins follow every project; members the projects where they are on a comment).',
    examples: [{ following: false }],
  },
);
export type FollowingBody = Static<typeof FollowingBody>;
