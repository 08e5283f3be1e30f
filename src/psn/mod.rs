//! PSN records in international (Hodges) notation, and PSN2: reader and writer.
