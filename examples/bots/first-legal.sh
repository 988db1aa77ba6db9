#!/bin/sh
# A scoutlab bot in one line of jq: each input line is this seat's view as JSON
# (docs/engine-protocol.md); answer with the first of its legal moves, in notation.
#   scoutlab game --variant two-player --bots external:examples/bots/first-legal.sh,random
exec jq --unbuffered --raw-output '.legal[0]'
