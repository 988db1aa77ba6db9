"""The game in words for people: translations, the game log, and the rules summary (`scoutlab rules`)."""
