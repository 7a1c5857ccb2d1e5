"""The time track: units in time read by an annotation plan (files, tiers, units tables) and
scored by every measure of the registry's time group."""
