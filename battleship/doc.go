// Package battleship is the worked example of the behaviortree library: the
// game of Battleship, and four bots whose strategies are behavior trees.
//
// As in the seed documentation, each bot is split in two: the tree, which
// only says what the bot wants to do next (an [Intent] such as "go_right"),
// and the handler code, which carries the intent out: it fires a shot, or
// fails the intent when it cannot be carried out (a move off the board),
// and, when the answer to the shot comes, gives the tree the signal the
// answer calls for. Each bot is one file, bot_a.go to bot_d.go: its tree at
// the top, then its handler, what each intent does and which signal each
// answer gives.
//
//   - Bot "A", random guessing: Sequence(random_guess).
//   - Bot "B", brute force, row by row.
//   - Bot "C", zero in: random guesses until a hit, then scan around it.
//   - Bot "D", the original author's bot: C with randomized directions, and
//     "collateral damage" (hits that were not part of a sunk ship) targeted
//     before random guessing resumes.
//
// A [Bot] is a value: a tree version, its strategy, and the handler's
// memory. A [Game] keeps the bot's version after every turn, so it can be
// stepped back ([Game.Undo]) and every turn inspected. [PlayMany] plays many
// games on all cores, for statistics, without allocating per game.
//
// Everything random draws from explicit seeds: the same seeds play the same
// game. Points are named as the board is labelled, "A1" for the top left
// cell; boards have at most [MaxSide] columns and rows, and fleets at most
// [MaxShips] ships.
package battleship
