"""Hostile input for every parser and entry point (Hypothesis): each input either works or gets a
clear localmind error, and input that is refused changes nothing in the store."""
