type Row = Record<string, unknown>;

/**
 * A small hand-made tree: two ranked answers; the better one (rank 0) has two
 * follow-up questions, of which only the second was answered.
 */
export function oasstTree(): Row {
  return {
    message_tree_id: 't1',
    tree_state: 'ready_for_export',
    prompt: {
      message_id: 'm1',
      text: 'What is 2 + 2?',
      role: 'prompter',
      replies: [
        { message_id: 'm2', text: 'Five.', role: 'assistant', rank: 1, replies: [] },
        {
          message_id: 'm3',
          text: 'Four.',
          role: 'assistant',
          rank: 0,
          replies: [
            { message_id: 'm4', text: 'Why?', role: 'prompter', replies: [] },
            {
              message_id: 'm5',
              text: 'And 3 + 3?',
              role: 'prompter',
              replies: [
                { message_id: 'm6', text: 'Seven.', role: 'assistant', rank: 1, replies: [] },
                { message_id: 'm7', text: 'Six.', role: 'assistant', rank: 0 },
              ],
            },
          ],
        },
      ],
    },
  };
}
