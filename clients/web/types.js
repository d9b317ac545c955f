// @ts-check
// Shapes shared by the pages and the game renderers, as JSDoc typedefs for `tsc --noEmit`.
// Each game's own view shape is documented beside its renderer (games/<type>.js).
export {};

/**
 * @typedef {Object} SeatSummary
 * @property {number} seat
 * @property {string} label        the rulebook's name of the seat ("Reverent", "France", "Monk 2")
 * @property {boolean} taken
 * @property {string|null} name    who sits there ("Ann", or a bot's name)
 * @property {string|null} bot     the bot's level when a bot holds the seat
 */

/**
 * @typedef {Object} ResultBreakdownRow
 * @property {number} seat
 * @property {Array<{label: string, points: number}>} [categories]
 * @property {number} [total]
 */

/**
 * @typedef {Object} GameResult
 * @property {number[]} scores
 * @property {number[]} winners
 * @property {string} [summary]     one sentence naming the winner, the same in lobby, page and replay
 * @property {any} [breakdown]      per player, category by category (the narrator's data)
 */

/**
 * @typedef {Object} GameSummary
 * @property {string} id
 * @property {string} type
 * @property {string} title
 * @property {Record<string, any>} options
 * @property {"open"|"running"|"finished"} status
 * @property {SeatSummary[]} seats
 * @property {number} version
 * @property {number[]} to_act
 * @property {GameResult|null} result
 * @property {string} [created]
 */

/**
 * @typedef {Object} WireEvent
 * @property {number} version
 * @property {string} type          the event's name, or "Hidden"
 * @property {Record<string, any>} data
 * @property {string} [text]        the narrator's sentence (the log line)
 */

/**
 * @typedef {{type: string} & Record<string, any>} Command
 */

/**
 * @typedef {Object} GlossaryEntry
 * @property {string} name   the printed name
 * @property {string} [kind] what sort of thing it is ("card", "task", "luminary")
 * @property {string} [text] the rules text printed on it
 */

/**
 * @typedef {Object} Detail   what the detail panel shows for a card, tile or task
 * @property {string} title
 * @property {string} [kind]
 * @property {string} [text]
 * @property {string[]} [lines]
 */

/**
 * @typedef {Object} RenderCtx   what a renderer draws from (built fresh for each render)
 * @property {any} view                 the full current view of this audience
 * @property {any} [prev]               the view before the last update (null at first)
 * @property {Command[]} legal          legal commands (empty for spectators and replays)
 * @property {number|null} seat         the viewer's seat, null for spectators
 * @property {number[]} toAct
 * @property {string} status
 * @property {boolean} interactive      may the viewer send a command now
 * @property {"play"|"watch"|"replay"} mode
 * @property {string} gameType
 * @property {GameSummary|null} summary
 * @property {(seat: number) => string} seatName
 * @property {(seat: number) => string} colour      the seat's one colour, as on the board
 * @property {(cmd: Command|Command[]) => void} send  one command, or several to choose from
 * @property {(reason: string) => void} why          say why a click did nothing
 * @property {(d: Detail|null, pin?: boolean) => void} detail
 * @property {() => void} rerender
 * @property {Set<string>} changed      keys of the pieces the last update changed
 * @property {Record<string, GlossaryEntry>} glossary
 * @property {Record<string, any>} ui   page-only state of this renderer (selection, orientation)
 */

/**
 * @typedef {Object} PlayerLine   one row of the players panel
 * @property {number} seat
 * @property {string} [score]     the score as the board shows it ("14 prestige")
 * @property {string} [note]      a short public fact ("passed", "5 coins")
 * @property {number} [order]     1-based place in the turn order
 */

/**
 * @typedef {Object} Breakdown   the end-of-game table
 * @property {string[]} columns
 * @property {Array<{seat: number|null, name?: string, cells: Array<number|string>, total: number|string}>} rows
 */

/**
 * @typedef {Object} Renderer
 * @property {string} [title]
 * @property {(ctx: RenderCtx) => any} render                 the board area (a lit template)
 * @property {(cmd: Command, ctx: RenderCtx) => string|null} [label]
 * @property {(ctx: RenderCtx) => string} [status]            what the game waits for, when the view has no prompt
 * @property {(type: string, ctx: RenderCtx) => string|null} [groupLabel]
 * @property {(seat: number, view: any) => string|null} [seatColour]
 * @property {(ctx: RenderCtx) => PlayerLine[]} [players]
 * @property {(prev: any, view: any, seat: number|null) => Set<string>} [marks]
 * @property {(cmd: Command, ctx: RenderCtx) => string|null} [confirm]
 * @property {(view: any, result: GameResult|null, ctx: RenderCtx) => Breakdown|null} [breakdown]
 * @property {Renderer} [fallback]
 */
