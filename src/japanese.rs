//! Japanese notation shared by KIF and KI2: numerals, piece names, terminal words.
