/**
 * Circuit and country metadata for the bundled sessions, as OpenF1 reports them (keys and names taken
 * from OpenF1-shaped records in ../shared/fixtures/sessions where the circuit appears there).
 */
export interface CircuitInfo {
  circuit_key: number;
  circuit_short_name: string;
  circuit_type: 'Permanent' | 'Temporary - Street' | 'Temporary - Road';
  country_code: string;
  country_key: number;
  country_name: string;
  location: string;
}

const CIRCUITS: readonly CircuitInfo[] = [
  {
    circuit_key: 63,
    circuit_short_name: 'Sakhir',
    circuit_type: 'Permanent',
    country_code: 'BRN',
    country_key: 36,
    country_name: 'Bahrain',
    location: 'Sakhir',
  },
  {
    circuit_key: 149,
    circuit_short_name: 'Jeddah',
    circuit_type: 'Temporary - Street',
    country_code: 'KSA',
    country_key: 153,
    country_name: 'Saudi Arabia',
    location: 'Jeddah',
  },
  {
    circuit_key: 10,
    circuit_short_name: 'Melbourne',
    circuit_type: 'Temporary - Street',
    country_code: 'AUS',
    country_key: 5,
    country_name: 'Australia',
    location: 'Melbourne',
  },
  {
    circuit_key: 144,
    circuit_short_name: 'Baku',
    circuit_type: 'Temporary - Street',
    country_code: 'AZE',
    country_key: 30,
    country_name: 'Azerbaijan',
    location: 'Baku',
  },
  {
    circuit_key: 151,
    circuit_short_name: 'Miami',
    circuit_type: 'Temporary - Street',
    country_code: 'USA',
    country_key: 19,
    country_name: 'United States',
    location: 'Miami',
  },
  {
    circuit_key: 15,
    circuit_short_name: 'Catalunya',
    circuit_type: 'Permanent',
    country_code: 'ESP',
    country_key: 1,
    country_name: 'Spain',
    location: 'Barcelona',
  },
  {
    circuit_key: 2,
    circuit_short_name: 'Silverstone',
    circuit_type: 'Permanent',
    country_code: 'GBR',
    country_key: 2,
    country_name: 'Great Britain',
    location: 'Silverstone',
  },
  {
    circuit_key: 4,
    circuit_short_name: 'Hungaroring',
    circuit_type: 'Permanent',
    country_code: 'HUN',
    country_key: 14,
    country_name: 'Hungary',
    location: 'Budapest',
  },
  {
    circuit_key: 7,
    circuit_short_name: 'Spa-Francorchamps',
    circuit_type: 'Permanent',
    country_code: 'BEL',
    country_key: 16,
    country_name: 'Belgium',
    location: 'Spa-Francorchamps',
  },
  {
    circuit_key: 39,
    circuit_short_name: 'Monza',
    circuit_type: 'Permanent',
    country_code: 'ITA',
    country_key: 13,
    country_name: 'Italy',
    location: 'Monza',
  },
  {
    circuit_key: 61,
    circuit_short_name: 'Singapore',
    circuit_type: 'Temporary - Street',
    country_code: 'SGP',
    country_key: 157,
    country_name: 'Singapore',
    location: 'Marina Bay',
  },
  {
    circuit_key: 65,
    circuit_short_name: 'Mexico City',
    circuit_type: 'Permanent',
    country_code: 'MEX',
    country_key: 8,
    country_name: 'Mexico',
    location: 'Mexico City',
  },
  {
    circuit_key: 9,
    circuit_short_name: 'Austin',
    circuit_type: 'Permanent',
    country_code: 'USA',
    country_key: 19,
    country_name: 'United States',
    location: 'Austin',
  },
  {
    circuit_key: 70,
    circuit_short_name: 'Yas Marina Circuit',
    circuit_type: 'Permanent',
    country_code: 'UAE',
    country_key: 21,
    country_name: 'United Arab Emirates',
    location: 'Yas Island',
  },
  // Not in the 2023/2024 records of the shared fixtures: keys as OpenF1 lists them for later seasons.
  {
    circuit_key: 49,
    circuit_short_name: 'Shanghai',
    circuit_type: 'Permanent',
    country_code: 'CHN',
    country_key: 53,
    country_name: 'China',
    location: 'Shanghai',
  },
  {
    circuit_key: 75,
    circuit_short_name: 'Algarve International Circuit',
    circuit_type: 'Permanent',
    country_code: 'POR',
    country_key: 77,
    country_name: 'Portugal',
    location: 'Portimão',
  },
];

export function findCircuit(shortName: string): CircuitInfo {
  return (
    CIRCUITS.find((c) => c.circuit_short_name === shortName) ?? {
      circuit_key: 0,
      circuit_short_name: shortName,
      circuit_type: 'Permanent',
      country_code: '',
      country_key: 0,
      country_name: '',
      location: shortName,
    }
  );
}
