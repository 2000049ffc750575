export const resourceMapping = {};
