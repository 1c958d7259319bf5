// Package battleship is the worked example of the behaviortree library: the
// game of Battleship, and four bots whose strategies are behavior trees.
//
// As in the seed documentation, each bot is split in two: the tree, which
// only says what the bot wants to do next (an [Intent] such as "go_right"),
// and the handler code, which turns that intent into a shot, or fails it when
// it cannot be carried out (a move off the board), and tells the tree how the
// shot went. Bots are values: deciding and observing return a new bot and
// leave the old one as it was, so a [Game] keeps every bot version, one per
// turn, and can be stepped back.
//
//   - [NewA], random guessing: Sequence(random_guess).
//   - [NewB], brute force, row by row.
//   - [NewC], zero in: random guesses until a hit, then scan around it.
//   - [NewD], the original author's bot: C with randomized directions, and
//     "collateral damage" (hits that were not part of a sunk ship) targeted
//     before random guessing resumes.
//
// Everything random draws from explicit seeds: the same seeds play the same
// game.
package battleship
