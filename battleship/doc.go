// Package battleship is the worked example of the behaviortree library: the
// game of Battleship, and five bots whose strategies are behavior trees.
//
// As in the seed documentation, each bot is split in two: the tree, which
// only says what the bot wants to do next (an [Intent] such as "go_right"),
// and the handler code, which carries the intent out: it fires a shot, or
// fails the intent when it cannot be carried out (a move off the board),
// and, when the answer to the shot comes, gives the tree the signal the
// answer calls for. Each bot is one file, bot_a.go to bot_e.go: its tree at
// the top, then its handler, what each intent does and which signal each
// answer gives.
//
//   - Bot "A", random guessing: Sequence(random_guess).
//   - Bot "B", brute force, row by row.
//   - Bot "C", zero in: random guesses until a hit, then scan around it.
//   - Bot "D", the original author's bot: C with randomized directions, and
//     "collateral damage" (hits that were not part of a sunk ship) targeted
//     before random guessing resumes.
//   - Bot "E", the strongest: a stepped tree (the library's stepped
//     engine: a while guard, conditions, selectors) that targets while the
//     ship it targets is afloat, takes up collateral hits before it hunts
//     again, and hunts on one parity colour or by density; its handler
//     (density.go) counts placements and enumerates the configurations of
//     ships that explain the open hits. It is stepped once per tick, and
//     answers are not signals: its guards and conditions read the board.
//
// A [Bot] is a value: a tree version (of either engine) and its strategy.
// What the bot remembers between turns (its random generator, the hit it
// narrows down around or targets, the direction it walks) is in the
// version's memory, under keys each bot file declares, so a version, or
// its saved state ([RestoreBot]), is all it takes to play on. A [Game]
// keeps the bot's version after every turn, so it can be stepped back
// ([Game.Undo]) and every turn inspected. [PlayMany] plays many
// games on all cores, for statistics; what a game allocates is what its
// bot's memory writes (a few hundred small values a game).
//
// Everything random draws from explicit seeds: the same seeds play the same
// game. Points are named as the board is labelled, "A1" for the top left
// cell; boards have at most [MaxSide] columns and rows, and fleets at most
// [MaxShips] ships.
package battleship
