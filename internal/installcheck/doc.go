// Package installcheck holds no code: its test follows the README's install
// recipe on a new module that uses this checkout, so that the recipe cannot
// stop working unnoticed.
package installcheck
